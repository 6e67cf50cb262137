import { describe, expect, it, vi } from "vitest";
import { sendTestEmailAction, type TestSendRequest } from "@/app/dashboard/library/[id]/actions";
import { getDb } from "@/lib/db/client";
import { getTestEmailsSentToday } from "@/lib/usage/data/counts";
import { getEmailOrThrow } from "@/lib/sent-emails/service";
import { testSendDay } from "@/lib/core/plans";
import { createUserTemplate } from "@/lib/templates/data/user-templates";
import { PREVIEW_LIMITS } from "@/lib/core/limits";
import { OPEN_VARIABLES_SCHEMA } from "@/lib/templates/variables-schema";
import {
  ISO,
  counter,
  expectedEmailResponse,
  fillPreviewBucket,
  sender,
  setEmailsUsed,
  type Sender,
} from "../support/api";
import { newBrowser } from "../support/next-headers";
import { useResendStandIn } from "../support/resend-stand-in";
import { signedIn } from "../support/signed-in";

// The template page's "Send test email" (sendTestEmailAction): a test send, as a test key's is, whatever provider is
// configured. Resend is configured here, at a local stand-in that records every request about this file's accounts,
// so a test can say none reached it.

vi.mock("@/lib/auth/current", () => import("../support/signed-in"));
vi.mock("next/headers", () => import("../support/next-headers"));

const resend = useResendStandIn();

/** A signed-in account that can send (a verified domain, `welcome` in its library). */
async function signedInSender(): Promise<Sender> {
  const user = await sender("free");
  resend.domains.add(user.domain);
  signedIn.accountId = user.accountId;
  return user;
}

const request = (user: Sender, extra: Partial<TestSendRequest> = {}): TestSendRequest => ({
  templateId: user.welcomeId,
  to: "ann@example.com",
  subject: "Welcome aboard",
  from: "",
  variables: { userName: "Ann" },
  ...extra,
});

const storedEmails = (user: Sender) =>
  getDb()<{ provider: string; test: boolean }[]>`
    select provider, test from sent_emails where account_id = ${user.accountId} order by created_at, id`;

describe("sendTestEmailAction", () => {
  it("sends as a test key does: kept in the outbox, marked test and delivered; one of the day's test sends, not the month's emails nor an API call", async () => {
    const user = await signedInSender();
    await setEmailsUsed(user, 7);

    const state = await sendTestEmailAction(request(user));
    expect(state).toEqual({
      status: "success",
      message: "Test sent to ann@example.com.",
      emailId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(resend.received).toEqual([]);
    expect(await storedEmails(user)).toEqual([{ provider: "outbox", test: true }]);
    expect(await getEmailOrThrow(user.accountId, state.emailId!)).toEqual(
      expectedEmailResponse(
        user,
        state.emailId!,
        "delivered",
        [
          { type: "sent", at: ISO },
          { type: "delivered", at: ISO },
        ],
        { test: true },
      ),
    );
    expect({
      emails: await counter(user, "emails"),
      apiCalls: await counter(user, "api_calls"),
      testSendsToday: await getTestEmailsSentToday(user.accountId),
    }).toEqual({ emails: 7, apiCalls: 0, testSendsToday: 1 });
  });

  it("refuses a send past the day's test sends, saying so for the dashboard, and sends nothing", async () => {
    const user = await signedInSender();
    await getDb()`
      insert into usage_daily (account_id, metric, day, count)
      values (${user.accountId}, 'test_emails', (now() at time zone 'utc')::date, 100)`;

    expect(await sendTestEmailAction(request(user))).toEqual({
      status: "error",
      message:
        "Test sends, from the dashboard and with test keys, are at most 100 emails a day per account and today's " +
        `have all been sent. Nothing was sent. Test sends resume at ${testSendDay().reset.toISOString()}; sends with ` +
        "live keys are not affected.",
    });
    expect(await storedEmails(user)).toEqual([]);
    expect(await getTestEmailsSentToday(user.accountId)).toBe(100);
  });

  it("says what is wrong with each refused field, as POST /send's details do", async () => {
    const user = await signedInSender();
    expect(await sendTestEmailAction(request(user, { to: "ann", subject: "" }))).toEqual({
      status: "error",
      message:
        "Invalid request body\n• to: must be a valid email address\n• subject: subject must be 1 to 998 characters",
    });
    expect(await storedEmails(user)).toEqual([]);
  });

  it("sends only templates in the account's library: not one that is none, nor another account's", async () => {
    const other = await signedInSender();
    const theirs = await createUserTemplate(other.accountId, {
      name: "Theirs",
      description: "",
      code: "export default function Theirs() { return null; }",
      compiledCode: "",
      variables: OPEN_VARIABLES_SCHEMA,
      previewProps: null,
    });
    const user = await signedInSender();
    for (const templateId of ["00000000-0000-4000-8000-000000000000", theirs.id])
      expect(await sendTestEmailAction(request(user, { templateId }))).toEqual({
        status: "error",
        message: "This template is not in your library. Add or purchase it first.",
      });
    expect(await storedEmails(user)).toEqual([]);
  });

  it("is limited as the dashboard's previews are: past the account's minute, refused before anything is rendered", async () => {
    const user = await signedInSender();
    newBrowser("203.0.113.77");
    await fillPreviewBucket(`preview:account:${user.accountId}`, PREVIEW_LIMITS.perAccount);
    const refused = await sendTestEmailAction(request(user));
    expect(refused).toEqual({
      status: "error",
      message: expect.stringMatching(
        new RegExp(
          `^Dashboard previews are limited to ${PREVIEW_LIMITS.perAccount} a minute per account\\. Try again in \\d+ seconds\\.$`,
        ),
      ),
    });
    expect(await storedEmails(user)).toEqual([]);
    expect(await getTestEmailsSentToday(user.accountId)).toBe(0);
  });
});
