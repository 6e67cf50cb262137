import { expect, vi } from "vitest";
import { signUpAction } from "@/app/(auth)/actions";
import { GET as confirm } from "@/app/auth/confirm/route";
import { call } from "./api";
import { submit } from "./next-headers";

// Local sign-up by confirmed email, as a user goes through it with no email provider configured: the form's answer,
// the email the server wrote to its log, and the link in it. Use with next/headers mocked by ./next-headers.

export type LoggedEmail = { level: string; message: string; to: string; subject: string; text: string };

export const LOGGED_EMAIL_MESSAGE = "sign-up email (no email provider configured)";

/** Runs `action` and answers its result with the sign-up emails it wrote to the server log. */
export async function withLoggedEmails<T>(action: () => Promise<T>): Promise<{ result: T; emails: LoggedEmail[] }> {
  const info = vi.spyOn(console, "info").mockImplementation(() => {});
  try {
    const result = await action();
    const emails = info.mock.calls
      .map(([line]) => (typeof line === "string" && line.startsWith("{") ? (JSON.parse(line) as LoggedEmail) : null))
      .filter((email): email is LoggedEmail => email?.message === LOGGED_EMAIL_MESSAGE);
    return { result, emails };
  } finally {
    info.mockRestore();
  }
}

/**
 * The sign-up form's answer with no email provider, whatever the address: no session, and a link (or notice) printed
 * in the server's terminal.
 */
export const checkEmail = (email: string) => ({
  state: {
    status: "check_email",
    email,
    message: `No email provider is configured, so the link to finish signing up to ${email} was printed in the terminal running the app.`,
  },
});

/** The sign-up form's answer with an email provider, whatever the address: a link (or notice) in its inbox. */
export const checkInbox = (email: string) => ({
  state: {
    status: "check_email",
    email,
    message: `Check your inbox: we sent a link to finish signing up to ${email}.`,
  },
});

/** The path and query of the sign-up link in an email's text. */
export function signUpLink(text: string): string {
  const match = /http:\/\/localhost:3000(\/auth\/confirm\?token=[A-Za-z0-9_-]{43})$/.exec(text);
  if (!match) throw new Error(`no sign-up link in: ${text}`);
  return match[1];
}

/** Follows a sign-up link in the current simulated browser: where it redirects to. */
export async function followLink(link: string): Promise<{ status: number; location: string | null }> {
  const result = await call(confirm, link);
  return { status: result.status, location: result.headers.get("location") };
}

/** Requests a sign-up and returns the link it mailed. */
export async function requestSignUp(fields: { email: string; password: string }): Promise<string> {
  const { result, emails } = await withLoggedEmails(() => submit(signUpAction, { ...fields, next: "/dashboard" }));
  expect(result).toEqual(checkEmail(fields.email));
  expect(emails).toHaveLength(1);
  return signUpLink(emails[0].text);
}

/** Signs up through the emailed link, which signs the current simulated browser in. */
export async function signUpThroughLink(fields: { email: string; password: string }): Promise<void> {
  const link = await requestSignUp(fields);
  expect(await followLink(link)).toEqual({ status: 307, location: "http://localhost:3000/dashboard" });
}
