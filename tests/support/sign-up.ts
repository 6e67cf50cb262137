import { isValidElement, type ReactElement, type ReactNode } from "react";
import { expect, vi } from "vitest";
import { confirmSignUpAction, signUpAction, type ConfirmSignUpState } from "@/app/(auth)/actions";
import { ConfirmSignUpForm, type ConfirmSignUpFormProps } from "@/app/(auth)/auth/confirm/confirm-form";
import ConfirmSignUpPage from "@/app/(auth)/auth/confirm/page";
import { BASE } from "./api";
import { redirectTarget, submit } from "./next-headers";

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

/** The path and query of the sign-up link in an email's text (with the `next` it carries, if any). */
export function signUpLink(text: string): string {
  const match = /http:\/\/localhost:3000(\/auth\/confirm\?token=[A-Za-z0-9_-]{43}(?:&next=[^\s]+)?)$/.exec(text);
  if (!match) throw new Error(`no sign-up link in: ${text}`);
  return match[1];
}

/**
 * Opens a sign-up link in the current simulated browser, as a GET of its page does: what its form shows (the token it
 * posts, the address, the account the browser is signed in to), or where the page redirected to.
 */
export async function openLink(link: string): Promise<{ page: ConfirmSignUpFormProps } | { redirect: string }> {
  const searchParams = Object.fromEntries(new URL(link, BASE).searchParams);
  let page: ReactNode;
  try {
    page = await ConfirmSignUpPage({ searchParams: Promise.resolve(searchParams) });
  } catch (error) {
    return { redirect: redirectTarget(error) };
  }
  const form = elements(page).find((element) => element.type === ConfirmSignUpForm);
  if (!form) throw new Error(`the page of ${link} has no form`);
  return { page: form.props as ConfirmSignUpFormProps };
}

function elements(node: ReactNode): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (!isValidElement<{ children?: ReactNode }>(node)) return [];
  return [node as ReactElement<Record<string, unknown>>, ...elements(node.props.children)];
}

/**
 * Presses the button of a sign-up link's page in the current simulated browser: its Server Action, posted with the
 * link's token and the `next` the page's form holds. Answers the page's new state, or where it redirected to.
 */
export async function finishSignUp(link: string): Promise<{ state: ConfirmSignUpState } | { redirect: string }> {
  const opened = await openLink(link);
  const next = "page" in opened ? opened.page.next : "/dashboard";
  return submit(confirmSignUpAction, { token: new URL(link, BASE).searchParams.get("token") ?? "", next });
}

/** Requests a sign-up and returns the link it mailed. */
export async function requestSignUp(fields: { email: string; password: string }): Promise<string> {
  const { result, emails } = await withLoggedEmails(() => submit(signUpAction, { ...fields, next: "/dashboard" }));
  expect(result).toEqual(checkEmail(fields.email));
  expect(emails).toHaveLength(1);
  return signUpLink(emails[0].text);
}

/** Signs up through the emailed link's page, whose button signs the current simulated browser in. */
export async function signUpThroughLink(fields: { email: string; password: string }): Promise<void> {
  const link = await requestSignUp(fields);
  expect(await openLink(link)).toEqual({
    page: { token: expect.any(String), email: fields.email.toLowerCase(), signedInAs: null, next: "/dashboard" },
  });
  expect(await finishSignUp(link)).toEqual({ redirect: "/dashboard" });
}
