import { isValidElement, type ReactElement, type ReactNode } from "react";
import { expect } from "vitest";
import { BASE } from "./api";
import { redirectTarget } from "./next-headers";
import { withLoggedEmails, type LoggedEmail } from "./sign-up";

// The links of local accounts' password resets and email changes, as a user follows them with no email provider: the
// email the server wrote to its log, the link in it, and the page it opens. Use with next/headers mocked by
// ./next-headers.

/** The path and query of the link to `path` at the end of an email's text. */
export function linkIn(text: string, path: string): string {
  const match = new RegExp(`http://localhost:3000(${path.replace(/[/?]/g, "\\$&")}\\?token=[A-Za-z0-9_-]{43})$`).exec(
    text,
  );
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return match[1];
}

/** The one email an action wrote to the log, and the action's result. */
export async function withOneEmail<T>(action: () => Promise<T>): Promise<{ result: T; email: LoggedEmail }> {
  const { result, emails } = await withLoggedEmails(action);
  expect(emails).toHaveLength(1);
  return { result, email: emails[0] };
}

/**
 * Opens a link's page in the current simulated browser, as a GET of it does: the props of the form `Form` it shows,
 * or where the page redirected to.
 */
export async function openPage<P>(
  Page: (props: { searchParams: Promise<Record<string, string>> }) => Promise<ReactNode>,
  Form: (props: P) => ReactNode,
  link: string,
): Promise<{ page: P } | { redirect: string }> {
  const searchParams = Object.fromEntries(new URL(link, BASE).searchParams);
  let page: ReactNode;
  try {
    page = await Page({ searchParams: Promise.resolve(searchParams) });
  } catch (error) {
    return { redirect: redirectTarget(error) };
  }
  const form = elements(page).find((element) => element.type === Form);
  if (!form) throw new Error(`the page of ${link} has no form`);
  return { page: form.props as P };
}

function elements(node: ReactNode): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (!isValidElement<{ children?: ReactNode }>(node)) return [];
  return [node as ReactElement<Record<string, unknown>>, ...elements(node.props.children)];
}

/** A link's token, as its page's form posts it. */
export const tokenOf = (link: string) => new URL(link, BASE).searchParams.get("token") ?? "";
