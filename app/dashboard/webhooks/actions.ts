"use server";
import { redirect } from "next/navigation";
import { z } from "zod";
import { AppError, type ValidationDetail } from "@/lib/core/errors";
import { MAX_WEBHOOK_DESCRIPTION_CHARS, MAX_WEBHOOK_URL_LENGTH } from "@/lib/core/limits";
import { holdsNul } from "@/lib/core/schemas";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/schemas";
import {
  createWebhook,
  deleteWebhook,
  replayDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  type WebhookDelivery,
} from "@/lib/webhooks/service";
import { field, fieldMessages, formAction, formMessage, NUL_MESSAGE, refuse, type ActionState } from "../_lib/action";

const LIST = "/dashboard/webhooks";
const endpointPage = (id: string) => `${LIST}/${encodeURIComponent(id)}`;

/** A form that shows a secret once: the endpoint's id and its (new) secret, after a create or a rotation. */
export type SecretState = ActionState & { id?: string; secret?: string };
/** The test event's form: the delivery the attempt made. */
export type TestState = ActionState & { delivery?: WebhookDelivery };

// The form's own words for what a person gets wrong; the URL's other rules (https, no credentials, a public host) are
// the service's, whose message then stands under the field.
const endpointSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, "Enter the URL your server receives events at")
    .max(MAX_WEBHOOK_URL_LENGTH, `Use at most ${MAX_WEBHOOK_URL_LENGTH.toLocaleString("en-US")} characters`)
    .refine((url) => !holdsNul(url), NUL_MESSAGE),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES, "Choose events from the list")).min(1, "Choose at least one event"),
  description: z
    .string()
    .trim()
    .max(MAX_WEBHOOK_DESCRIPTION_CHARS, `Use at most ${MAX_WEBHOOK_DESCRIPTION_CHARS} characters`)
    .refine((description) => !holdsNul(description), NUL_MESSAGE),
});

/** The endpoint form's fields, checked: its values (given back on an error) and the parsed endpoint, or a refusal. */
function readEndpoint(form: FormData) {
  const events = form.getAll("events").map(String);
  const values = { url: field(form, "url"), description: field(form, "description"), events: events.join(",") };
  const parsed = endpointSchema.safeParse({ url: values.url, description: values.description, events });
  if (!parsed.success) {
    const { issues } = parsed.error;
    return refuse<ActionState>({ status: "error", message: issues[0].message, fields: fieldMessages(issues), values });
  }
  return { endpoint: parsed.data, values };
}

/** A change the service refused: its message, beside the field it names (the URL's rules) when it names one. */
function refusedEndpoint(error: unknown, values: Record<string, string>): ActionState {
  const details = error instanceof AppError ? ((error.options.details ?? []) as ValidationDetail[]) : [];
  const message = details[0]?.message ?? formMessage(error);
  const fields = Object.fromEntries(details.map((detail) => [detail.field.split(".")[0], detail.message]));
  return { status: "error", message, ...(details.length > 0 ? { fields } : {}), values };
}

export async function createWebhookAction(_previous: SecretState, formData: FormData): Promise<SecretState> {
  return formAction(formData, {
    page: LIST,
    area: "webhooks",
    input: (form) => readEndpoint(form),
    run: (account, { endpoint: { url, events, description } }) =>
      createWebhook(account.id, { url, events, ...(description ? { description } : {}) }),
    refused: (error, { values }) => refusedEndpoint(error, values),
    revalidate: [LIST],
    done: (created): SecretState => ({
      status: "success",
      message: `Added ${created.url}.`,
      id: created.id,
      secret: created.secret,
    }),
  });
}

export async function updateWebhookAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const id = field(formData, "id");
  return formAction(formData, {
    page: endpointPage(id),
    area: "webhooks",
    input: (form) => readEndpoint(form),
    run: (account, { endpoint: { url, events, description } }) =>
      updateWebhook(account.id, id, { url, events, description: description || null }),
    refused: (error, { values }) => refusedEndpoint(error, values),
    revalidate: [LIST, endpointPage(id)],
    done: (): ActionState => ({ status: "success", message: "Saved." }),
  });
}

/** Disable (deliveries stop: events meanwhile are not kept for it) or enable (clears why Letterpress disabled it). */
export async function setWebhookEnabledAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const id = field(formData, "id");
  return formAction(formData, {
    page: endpointPage(id),
    area: "webhooks",
    input: (form) => ({ enabled: field(form, "enabled") === "true" }),
    run: (account, { enabled }) => updateWebhook(account.id, id, { enabled }),
    revalidate: [LIST, endpointPage(id)],
    done: (updated): ActionState => ({
      status: "success",
      message: updated.enabled ? "Enabled: new events are delivered to it." : "Disabled: nothing is delivered to it.",
    }),
  });
}

export async function rotateWebhookSecretAction(formData: FormData): Promise<SecretState> {
  const id = field(formData, "id");
  return formAction(formData, {
    page: endpointPage(id),
    area: "webhooks",
    input: () => ({}),
    run: (account) => rotateWebhookSecret(account.id, id),
    revalidate: [endpointPage(id)],
    done: (rotated): SecretState => ({ status: "success", id: rotated.id, secret: rotated.secret }),
  });
}

/** Delete, after the confirmation its button asks for; back to the list, which no longer has it. */
export async function deleteWebhookAction(formData: FormData): Promise<ActionState> {
  const id = field(formData, "id");
  return formAction(formData, {
    page: endpointPage(id),
    area: "webhooks",
    input: () => ({}),
    run: (account) => deleteWebhook(account.id, id),
    revalidate: [LIST],
    done: () => redirect(LIST),
  });
}

export async function replayDeliveryAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const id = field(formData, "id");
  return formAction(formData, {
    page: endpointPage(id),
    area: "webhooks",
    input: (form) => ({ deliveryId: field(form, "deliveryId") }),
    run: (account, { deliveryId }) => replayDelivery(account.id, id, deliveryId),
    revalidate: [endpointPage(id)],
    done: (): ActionState => ({ status: "success", message: "Replayed: the new delivery is at the top of the log." }),
  });
}

/** A `webhook.test` event sent once, at once: the form shows the attempt's outcome (also in the log). */
export async function sendTestEventAction(_previous: TestState, formData: FormData): Promise<TestState> {
  const id = field(formData, "id");
  return formAction(formData, {
    page: endpointPage(id),
    area: "webhooks",
    input: () => ({}),
    run: (account) => sendTestEvent(account.id, id),
    revalidate: [endpointPage(id)],
    done: (delivery): TestState => ({ status: "success", delivery }),
  });
}
