import { z } from "zod";
import { defineOperation } from "@/lib/api/contract/define";
import { emailResponseSchema, listEmailsQuerySchema, listEmailsResponseSchema } from "@/lib/sent-emails/schemas";

/** An email named by its id in the path. */
const BY_EMAIL_ID = {
  pathParameters: { id: z.string().max(256).meta({ description: "The id POST /send answered with (data.id)" }) },
  notFound: "EMAIL_NOT_FOUND",
} as const;

export const listEmails = defineOperation({
  method: "GET",
  path: "/emails",
  operationId: "listEmails",
  summary: "List your emails and their status, newest first",
  metered: true,
  sendingAccess: true,
  query: listEmailsQuerySchema,
  success: { status: 200, description: "A page of your emails", schema: listEmailsResponseSchema },
  errorDescriptions: { VALIDATION_ERROR: "Bad limit, offset or status" },
});

export const getEmail = defineOperation({
  method: "GET",
  path: "/emails/{id}",
  operationId: "getEmail",
  summary: "An email you sent, its status and its delivery events",
  metered: true,
  sendingAccess: true,
  ...BY_EMAIL_ID,
  success: { status: 200, description: "The email", schema: emailResponseSchema },
  errors: ["EMAIL_NOT_FOUND"],
  errorDescriptions: { EMAIL_NOT_FOUND: "Not one of your emails" },
});

export const cancelEmail = defineOperation({
  method: "POST",
  path: "/emails/{id}/cancel",
  operationId: "cancelEmail",
  summary: "Cancel a scheduled email; it no longer counts toward your monthly emails",
  metered: true,
  sendingAccess: true,
  ...BY_EMAIL_ID,
  success: { status: 200, description: "Canceled: the email, now with status canceled", schema: emailResponseSchema },
  errors: ["EMAIL_NOT_FOUND", "EMAIL_NOT_CANCELABLE", "EMAIL_PROVIDER_ERROR"],
  errorDescriptions: {
    EMAIL_NOT_FOUND: "Not one of your emails",
    EMAIL_NOT_CANCELABLE: "The email is not scheduled",
    EMAIL_PROVIDER_ERROR: "The email provider did not cancel it; nothing changed",
  },
});
