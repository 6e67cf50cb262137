"use server";
import { z } from "zod";
import {
  addDomain,
  findSendingDomain,
  registerSendingDomain,
  removeSendingDomain,
  updateDomain,
  verifyDomain,
} from "@/lib/sending-domains/service";
import { AppError } from "@/lib/core/errors";
import { field, formAction, formMessage, refuse, type ActionState } from "../_lib/action";

const PAGE = "/dashboard/domains";

const domainSchema = z.object({
  domain: z.string().trim().min(1, "Enter a domain, such as mail.example.com"),
  defaultSender: z.string().trim().max(320).optional(),
});

const GONE: ActionState = { status: "error", message: "That domain is no longer on your list." };

export async function addDomainAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: PAGE,
    area: "domains",
    input: (form) => {
      const values = { domain: field(form, "domain"), defaultSender: field(form, "defaultSender") };
      const parsed = domainSchema.safeParse({
        domain: values.domain,
        defaultSender: values.defaultSender || undefined,
      });
      if (!parsed.success) {
        const [{ message }] = parsed.error.issues;
        return refuse<ActionState>({ status: "error", message, fields: { domain: message }, values });
      }
      return { domain: parsed.data, values };
    },
    // The rules are the API's (POST /domains): one already on the list is refused there too.
    run: (account, { domain }) => addDomain(account.id, domain),
    refused: (error, { values }) => {
      const message = formMessage(error);
      return {
        status: "error",
        message,
        ...(error instanceof AppError ? { fields: { domain: message } } : {}),
        values,
      };
    },
    revalidate: [PAGE],
    done: (outcome) => ({
      status: "success",
      message:
        outcome.mode === "resend"
          ? outcome.message
          : `Added ${outcome.domain.domain}. Mark it verified to send from it.`,
    }),
  });
}

/**
 * Verification: with Resend configured, asks Resend to check the DNS records again. In the embedded default there is
 * no DNS, and "mark as verified" stands in for it.
 */
export async function verifyDomainAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: PAGE,
    area: "domains",
    input: (form) => ({ id: field(form, "id") }),
    run: async (account, { id }) => (await verifyDomain(account.id, id)).message,
    refused: (error) =>
      error instanceof AppError && error.code === "DOMAIN_NOT_FOUND"
        ? GONE
        : { status: "error", message: formMessage(error) },
    revalidate: [PAGE, "/dashboard"],
    done: (message): ActionState => ({ status: "success", message }),
  });
}

/** The tracking switches: through the service PATCH /domains/{id} changes them with (Resend's, when it sends). */
export async function updateTrackingAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: PAGE,
    area: "domains",
    input: (form) => ({
      id: field(form, "id"),
      change: { open_tracking: form.get("openTracking") === "on", click_tracking: form.get("clickTracking") === "on" },
    }),
    run: (account, { id, change }) => updateDomain(account.id, id, change),
    refused: (error) =>
      error instanceof AppError && error.code === "DOMAIN_NOT_FOUND"
        ? GONE
        : { status: "error", message: formMessage(error) },
    revalidate: [PAGE],
    done: (domain): ActionState => ({
      status: "success",
      message: `Saved: opens ${domain.open_tracking ? "tracked" : "not tracked"}, clicks ${domain.click_tracking ? "tracked" : "not tracked"}.`,
    }),
  });
}

export async function updateDefaultSenderAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: PAGE,
    area: "domains",
    input: async (form, account) => {
      const current = await findSendingDomain(account.id, field(form, "domain"));
      if (!current) return refuse(GONE);
      const sender = field(form, "defaultSender").trim();
      if (!z.email().safeParse(sender).success)
        return refuse<ActionState>({
          status: "error",
          message: "Enter an email address",
          fields: { defaultSender: "Enter an email address" },
        });
      return { domain: current.domain, defaultSender: sender };
    },
    run: (account, change) => registerSendingDomain(account.id, change),
    refused: (error) => {
      const message = formMessage(error);
      return { status: "error", message, ...(error instanceof AppError ? { fields: { defaultSender: message } } : {}) };
    },
    revalidate: [PAGE],
    done: (): ActionState => ({ status: "success", message: "Saved." }),
  });
}

/** Remove, after the confirmation its button asks for: through the service the CLI and API remove a domain with. */
export async function removeDomainAction(formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: PAGE,
    area: "domains",
    input: (form) => ({ id: field(form, "id") }),
    run: (account, { id }) => removeSendingDomain(account.id, id),
    refused: (error) =>
      error instanceof AppError && error.code === "DOMAIN_NOT_FOUND"
        ? GONE
        : { status: "error", message: formMessage(error) },
    revalidate: [PAGE, "/dashboard"],
    done: ({ domain }): ActionState => ({ status: "success", message: `Removed ${domain}.` }),
  });
}
