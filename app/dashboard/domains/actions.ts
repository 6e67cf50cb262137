"use server";
import { z } from "zod";
import { getConfig } from "@/lib/core/config";
import {
  findSendingDomain,
  registerSendingDomain,
  removeSendingDomain,
  verifySendingDomain,
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
    input: async (form, account) => {
      const values = { domain: field(form, "domain"), defaultSender: field(form, "defaultSender") };
      const parsed = domainSchema.safeParse({
        domain: values.domain,
        defaultSender: values.defaultSender || undefined,
      });
      if (!parsed.success) {
        const [{ message }] = parsed.error.issues;
        return refuse<ActionState>({ status: "error", message, fields: { domain: message }, values });
      }
      if (await findSendingDomain(account.id, parsed.data.domain)) {
        return refuse<ActionState>({
          status: "error",
          message: `${parsed.data.domain} is already on your list.`,
          fields: { domain: "Already added" },
          values,
        });
      }
      return { domain: parsed.data, values };
    },
    run: (account, { domain }) => registerSendingDomain(account.id, domain),
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
    input: (form) => ({ id: field(form, "id"), domain: field(form, "domain") }),
    run: async (account, { id, domain }) => {
      if (getConfig().resend) return (await verifySendingDomain(account.id, id)).message;
      const current = await findSendingDomain(account.id, domain);
      if (!current) return refuse(GONE);
      const outcome = await registerSendingDomain(account.id, { domain: current.domain, markVerified: true });
      return `${outcome.domain.domain} is verified. You can send from it now.`;
    },
    revalidate: [PAGE, "/dashboard"],
    done: (message): ActionState => ({ status: "success", message }),
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
