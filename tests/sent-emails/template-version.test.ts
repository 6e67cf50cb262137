import { isValidElement, type ReactElement, type ReactNode } from "react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import EmailPage from "@/app/dashboard/emails/[id]/page";
import { getDb } from "@/lib/db/client";
import { createTemplateFromSource } from "@/lib/templates/user-templates";
import { createUser, type TestUser } from "../support/api";
import { signedIn } from "../support/signed-in";

// An email's page names the template it was rendered from and links to the version recorded with it.
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));

const HELLO = `import { Html, Text } from "@react-email/components";
export default function Hello() {
  return <Html><Text>Hello</Text></Html>;
}
`;

let user: TestUser;
let templateId: string;
beforeAll(async () => {
  user = await createUser("annual");
  signedIn.accountId = user.accountId;
  templateId = (await createTemplateFromSource(user.accountId, { name: "Welcome", description: "", code: HELLO })).id;
});

/** An email of the user's rendered from `template`, recording `version`; its id. */
async function emailFrom(template: string | null, version: string | null): Promise<string> {
  const [row] = await getDb()<{ id: string }[]>`
    insert into sent_emails (account_id, template_id, template_version, status, provider, from_address, to_addresses,
                             subject, html)
    values (${user.accountId}, ${template}, ${version}, 'sent', 'embedded', 'hello@example.com',
            ${["ann@example.com"]}, 'Hi', '<p>Hi</p>')
    returning id`;
  return row.id;
}

function elements(node: ReactNode): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (!isValidElement<{ children?: ReactNode }>(node)) return [];
  return [node as ReactElement<Record<string, unknown>>, ...elements(node.props.children)];
}

/** What the page's Template line holds: the link's target and text, or null when the page has no such line. */
async function templateLine(emailId: string) {
  const page = elements(await EmailPage({ params: Promise.resolve({ id: emailId }) }));
  const line = page.find((element) => element.props["data-testid"] === "email-template");
  if (!line) return null;
  const link = (line.props.children as ReactElement<Record<string, unknown>>).type as (props: object) => ReactNode;
  const rendered = link((line.props.children as ReactElement<object>).props) as ReactElement<{
    href: string;
    children: ReactNode;
  }>;
  return { href: rendered.props.href, text: [rendered.props.children].flat().join("") };
}

describe("an email's page", () => {
  it("links to the version the email was sent from, in the template's versions panel", async () => {
    expect(await templateLine(await emailFrom(templateId, "2"))).toEqual({
      href: `/dashboard/library/${templateId}?version=2#versions`,
      text: "Welcome, version 2",
    });
  });

  it("links a draft's email to the template's page, where its draft is, and an email older than versions to the template", async () => {
    expect(await templateLine(await emailFrom(templateId, "draft"))).toEqual({
      href: `/dashboard/library/${templateId}`,
      text: "Welcome, its draft",
    });
    expect(await templateLine(await emailFrom(templateId, null))).toEqual({
      href: `/dashboard/library/${templateId}`,
      text: "Welcome",
    });
  });

  it("has no template line for an email that names no template", async () => {
    expect(await templateLine(await emailFrom(null, null))).toBeNull();
  });

  it("says the locale a localized template's email was rendered in, and nothing of one for another email", async () => {
    const localeLine = async (id: string) =>
      elements(await EmailPage({ params: Promise.resolve({ id }) })).find(
        (element) => element.props["data-testid"] === "email-locale",
      )?.props.children ?? null;
    const localized = await emailFrom(templateId, "1");
    await getDb()`update sent_emails set locale = 'pt-BR' where id = ${localized}`;
    expect(await localeLine(localized)).toBe("pt-BR");
    expect(await localeLine(await emailFrom(templateId, "1"))).toBeNull();
  });
});
