"use server";
import { z } from "zod";
import { issueApiKey, revokeAccountApiKey } from "@/lib/api-keys/account-keys";
import { API_KEY_KINDS, API_KEY_SCOPES, type ApiKeyScope } from "@/lib/api-keys/service";
import { AppError } from "@/lib/core/errors";
import { holdsNul } from "@/lib/core/schemas";
import {
  field,
  fieldMessages,
  formAction,
  formMessage,
  NUL_MESSAGE,
  refuse,
  runAction,
  type ActionState,
} from "../../_lib/action";
import { KEY_EXPIRY_DAYS, NO_EXPIRY } from "./key-expiry";

const PAGE = "/dashboard/settings/api-keys";

export type CreateKeyState = ActionState & { id?: string; key?: string; name?: string; scope?: ApiKeyScope };

const newKeySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the key a name")
    .max(64, "Use at most 64 characters")
    .refine((name) => !holdsNul(name), NUL_MESSAGE),
  kind: z.enum(API_KEY_KINDS, "Choose live or test"),
  scope: z.enum(API_KEY_SCOPES, "Choose full access or sending access"),
  // Empty: the key may send from any of the account's domains. That the domain is the account's is checked where the
  // key is stored.
  domain: z
    .string()
    .trim()
    .max(253, "Choose one of your sending domains")
    .refine((domain) => !holdsNul(domain), "Choose one of your sending domains")
    .transform((domain) => domain || null),
  expiresInDays: z
    .string()
    .refine(
      (days) => days === NO_EXPIRY || KEY_EXPIRY_DAYS.some((offered) => String(offered) === days),
      "Choose one of the expiries offered",
    )
    .transform((days) => (days === NO_EXPIRY ? null : new Date(Date.now() + Number(days) * 86_400_000))),
});

export async function createApiKeyAction(_previous: CreateKeyState, formData: FormData): Promise<CreateKeyState> {
  return formAction(formData, {
    page: PAGE,
    area: "api_keys",
    input: (form) => {
      const values = {
        name: field(form, "name"),
        kind: field(form, "kind", "live"),
        scope: field(form, "scope", "full_access"),
        domain: field(form, "domain"),
        expiresInDays: field(form, "expiresInDays", NO_EXPIRY),
      };
      const parsed = newKeySchema.safeParse(values);
      if (!parsed.success) {
        const { issues } = parsed.error;
        return refuse<CreateKeyState>({
          status: "error",
          message: issues[0].message,
          fields: fieldMessages(issues),
          values,
        });
      }
      return { key: parsed.data, values };
    },
    run: (account, { key: { name, kind, scope, domain, expiresInDays } }) =>
      issueApiKey(account.id, { name, kind, scope, domain, expiresAt: expiresInDays, createdBy: account.person.id }),
    refused: (error, { key, values }) => {
      if (!(error instanceof AppError && error.code === "DOMAIN_NOT_FOUND"))
        return { status: "error", message: formMessage(error), values };
      // Removed in another tab, or a crafted request.
      const message = `${key.domain?.trim().toLowerCase()} is not one of your sending domains`;
      return { status: "error", message, fields: { domain: message }, values };
    },
    revalidate: [PAGE, "/dashboard"],
    done: (created) => ({
      status: "success",
      id: created.id,
      key: created.key,
      name: created.name,
      scope: created.scope,
    }),
  });
}

export async function revokeApiKeyAction(formData: FormData): Promise<void> {
  return runAction(formData, {
    page: PAGE,
    area: "api_keys",
    input: (form) => z.uuid().safeParse(form.get("id")),
    run: async (account, id) => {
      if (id.success) await revokeAccountApiKey(account.id, id.data);
    },
    refused: (error) => {
      throw error;
    },
    revalidate: [PAGE],
    done: () => {},
  });
}
