import { randomUUID } from "node:crypto";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { confirmSignUpAction, signUpAction } from "@/app/(auth)/actions";
import { joinTeamAction } from "@/app/(auth)/invite/[token]/actions";
import InvitePage from "@/app/(auth)/invite/[token]/page";
import SignUpPage from "@/app/(auth)/signup/page";
import { runAsActor } from "@/lib/audit/context";
import { createAccount } from "@/lib/auth/data/accounts";
import { hashPassword } from "@/lib/auth/passwords";
import { LOCAL_SESSION_COOKIE } from "@/lib/auth/session";
import { inviteMember } from "@/lib/teams/service";
import { browser, newBrowser, submit } from "../support/next-headers";
import { checkEmail, finishSignUp, openLink, signUpLink, withLoggedEmails } from "../support/sign-up";
import { createTeam, roles, type TestTeam } from "../support/teams";

vi.mock("next/headers", () => import("../support/next-headers"));

// An invitee with no sign-in signs up from the invitation's page: the emailed link carries the invitation's path
// through the confirmation, so its button signs them in on the invitation, which they join with one more press.
// The path carried is only ever one on the app's own origin, at every hop (the form, the link, the link's page).

const password = "correct horse battery staple";
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

async function invite(team: TestTeam, email: string): Promise<string> {
  const { emails } = await withLoggedEmails(() =>
    runAsActor({ actor: { type: "user", id: team.personId, label: team.email }, ip: null }, () =>
      inviteMember(team.admin, { email, role: "member" }),
    ),
  );
  return /\/invite\/([A-Za-z0-9_-]{43})$/.exec(emails[0].text)![1];
}

const invitePage = async (token: string) =>
  renderToStaticMarkup(await InvitePage({ params: Promise.resolve({ token }) }));
const text = (html: string) =>
  html
    // React's inline script that replays a form submitted before hydration.
    .replace(/<script>[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

const signUp = (email: string, next: string) => withLoggedEmails(() => submit(signUpAction, { email, password, next }));

beforeEach(() => {
  newBrowser(`10.48.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`);
});

describe("an invitee without a sign-in", () => {
  it("signs up from the invitation's page; the emailed link signs them in on the invitation, which they join", async () => {
    const team = await createTeam();
    const email = `invitee-${randomUUID()}@example.com`;
    const token = await invite(team, email);
    const here = `/invite/${token}`;

    const signedOut = await invitePage(token);
    expect(signedOut).toContain(`href="/signup?next=%2Finvite%2F${token}"`);
    expect(signedOut).toContain(`href="/signin?next=%2Finvite%2F${token}"`);
    const form = renderToStaticMarkup(await SignUpPage({ searchParams: Promise.resolve({ next: here }) }));
    expect(form).toContain(`<input type="hidden" name="next" value="${here}"/>`);

    const { result, emails } = await signUp(email, here);
    expect(result).toEqual(checkEmail(email));
    const link = signUpLink(emails[0]?.text ?? "");
    expect(link).toMatch(new RegExp(`^/auth/confirm\\?token=[A-Za-z0-9_-]{43}&next=%2Finvite%2F${token}$`));
    expect(emails).toEqual([
      {
        level: "info",
        message: "sign-up email (no email provider configured)",
        to: email,
        subject: "Finish signing up to Letterpress",
        text:
          "Follow the link below within 24 hours to create your Letterpress account. It works once.\n\n" +
          "If you did not ask to sign up, you can ignore this email: no account is created without the link.\n\n" +
          `Finish signing up: http://localhost:3000${link}`,
      },
    ]);

    expect(await openLink(link)).toEqual({
      page: { token: expect.stringMatching(TOKEN), email, signedInAs: null, next: here },
    });
    expect(await finishSignUp(link)).toEqual({ redirect: here });
    expect(browser.cookies.has(LOCAL_SESSION_COOKIE)).toBe(true);

    // Signed in as the invited address, without reopening the email's invitation: the page offers Join.
    expect(text(await invitePage(token))).toBe(
      `Join ${team.admin.name} ${team.email} invited ${email} to join the team ${team.admin.name} as a member. ` +
        `Join ${team.admin.name}`,
    );
    expect(await submit(joinTeamAction, { token })).toEqual({ redirect: "/dashboard" });
    expect(browser.cookies.get("lp-team")).toBe(team.accountId);
    expect(await roles(team.accountId)).toEqual(
      [
        { email: team.email, role: "admin" },
        { email, role: "member" },
      ].sort((a, b) => (a.email < b.email ? -1 : 1)),
    );
  });

  it("an invited address that has an account already is mailed a sign-in link that comes back to the invitation", async () => {
    const team = await createTeam();
    const email = `invitee-${randomUUID()}@example.com`;
    await createAccount({ email, passwordHash: await hashPassword(password) });
    const token = await invite(team, email);

    const { result, emails } = await signUp(email, `/invite/${token}`);
    expect(result).toEqual(checkEmail(email));
    expect(emails).toEqual([
      {
        level: "info",
        message: "sign-up email (no email provider configured)",
        to: email,
        subject: "You already have a Letterpress account",
        text:
          "Someone, probably you, asked to sign up to Letterpress with this address. You already have an account, so nothing was changed.\n\n" +
          'If you forgot your password, choose "Forgot password?" on the sign-in page. If this was not you, you can ignore this email.\n\n' +
          `Sign in: http://localhost:3000/signin?next=%2Finvite%2F${token}`,
      },
    ]);
  });
});

describe("the path a sign-up carries", () => {
  const OTHER_ORIGINS = [
    "//evil.example/x",
    "https://evil.example/x",
    "http://localhost:3000.evil.example/x",
    "/\\evil.example",
    "\\\\evil.example",
    "/%2F%2Fevil.example",
    "javascript:alert(1)",
  ];

  it("is left out of the link, which then ends on the dashboard, when it is not a path of the app's own origin", async () => {
    for (const next of OTHER_ORIGINS) {
      newBrowser(`10.49.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`);
      const email = `evil-${randomUUID()}@example.com`;
      const { result, emails } = await signUp(email, next);
      expect(result).toEqual(checkEmail(email));
      const link = signUpLink(emails[0]?.text ?? "");
      expect(link).toMatch(/^\/auth\/confirm\?token=[A-Za-z0-9_-]{43}$/);
      expect(await finishSignUp(link)).toEqual({ redirect: "/dashboard" });
    }
  });

  it("is refused by the link's page and by its button when someone puts another origin in the link", async () => {
    for (const next of OTHER_ORIGINS) {
      newBrowser(`10.50.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`);
      const email = `crafted-${randomUUID()}@example.com`;
      const { emails } = await signUp(email, "/dashboard");
      const link = `${signUpLink(emails[0]?.text ?? "")}&next=${encodeURIComponent(next)}`;
      expect(await openLink(link)).toEqual({
        page: { token: expect.stringMatching(TOKEN), email, signedInAs: null, next: "/dashboard" },
      });
      const token = new URL(link, "http://localhost:3000").searchParams.get("token")!;
      expect(await submit(confirmSignUpAction, { token, next })).toEqual({ redirect: "/dashboard" });
      expect(browser.cookies.has(LOCAL_SESSION_COOKIE)).toBe(true);
    }
  });
});
