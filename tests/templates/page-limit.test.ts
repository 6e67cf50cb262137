import type { ReactElement } from "react";
import { describe, expect, it, vi } from "vitest";
import TemplatePage from "@/app/dashboard/library/[id]/page";
import { TemplateWorkbench } from "@/app/dashboard/library/[id]/workbench";
import { PREVIEW_LIMITS } from "@/lib/core/limits";
import { billingPeriod } from "@/lib/core/plans";
import { createTemplateFromSource } from "@/lib/templates/user-templates";
import { counter, createUser, fillPreviewBucket, setApiCallsUsed, type TestUser } from "../support/api";
import { newBrowser, useBrowser } from "../support/next-headers";
import { signedIn } from "../support/signed-in";

// A template's page renders its first preview on the server, in the sandbox: it is a dashboard render, admitted as the
// live preview is. Refused, the page still arrives, with the refusal where the preview would be.
vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));

const HELLO = `import { Html, Text } from "@react-email/components";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Text>Hello {name}</Text></Html>;
}
Hello.PreviewProps = { name: "Ada" };
`;

/** Signs `user` in with a template of its own; its id. */
async function signInWithTemplate(user: TestUser): Promise<string> {
  signedIn.accountId = user.accountId;
  return (await createTemplateFromSource(user.accountId, { name: "Hello", description: "", code: HELLO })).id;
}

/** The first preview the page hands its workbench: whether it rendered, and the message shown instead. */
async function firstPreview(id: string): Promise<{ rendered: boolean; error: string | null }> {
  const page = (await TemplatePage({
    params: Promise.resolve({ id }),
    searchParams: Promise.resolve({}),
  })) as ReactElement<{ children: ReactElement[] }>;
  const workbench = page.props.children.find((child) => child?.type === TemplateWorkbench) as ReactElement<{
    initialHtml: string | null;
    initialError: string | null;
  }>;
  const { initialHtml, initialError } = workbench.props;
  return { rendered: initialHtml?.includes("Hello <!-- -->Ada") ?? false, error: initialError };
}

const rendered = { rendered: true, error: null };
const previewLimit = (limit: number, per: string) => ({
  rendered: false,
  error: expect.stringMatching(
    new RegExp(`^Dashboard previews are limited to ${limit} a minute per ${per}\\. Try again in \\d+ seconds?\\.$`),
  ),
});

describe("a template's page", () => {
  it("shows /render's refusal instead of the preview once the month's API calls are used up; another account's renders, uncounted", async () => {
    useBrowser(newBrowser("203.0.113.51"));
    const spent = await createUser("free");
    const spentTemplate = await signInWithTemplate(spent);
    await setApiCallsUsed(spent, 500);
    const reset = billingPeriod().reset.toISOString();
    expect(await firstPreview(spentTemplate)).toEqual({
      rendered: false,
      error: `Your free plan includes 500 API calls per month. The limit resets at ${reset}; upgrade for unlimited calls.`,
    });
    const other = await createUser("free");
    const otherTemplate = await signInWithTemplate(other);
    await setApiCallsUsed(other, 499);
    expect(await firstPreview(otherTemplate)).toEqual(rendered);
    expect(await counter(other, "api_calls")).toBe(499);
  });

  it(`shows the preview limit's refusal past ${PREVIEW_LIMITS.perAccount} renders a minute; another account's renders`, async () => {
    useBrowser(newBrowser("203.0.113.52"));
    const busy = await createUser("annual");
    const busyTemplate = await signInWithTemplate(busy);
    await fillPreviewBucket(`preview:account:${busy.accountId}`, PREVIEW_LIMITS.perAccount);
    expect(await firstPreview(busyTemplate)).toEqual(previewLimit(PREVIEW_LIMITS.perAccount, "account"));
    expect(await firstPreview(await signInWithTemplate(await createUser("annual")))).toEqual(rendered);
  });

  it(`shows the preview limit's refusal past ${PREVIEW_LIMITS.perAddress} renders a minute from one address; from another it renders`, async () => {
    const template = await signInWithTemplate(await createUser("annual"));
    useBrowser(newBrowser("198.51.100.51"));
    await fillPreviewBucket("preview:address:198.51.100.51", PREVIEW_LIMITS.perAddress);
    expect(await firstPreview(template)).toEqual(previewLimit(PREVIEW_LIMITS.perAddress, "network address"));
    useBrowser(newBrowser("198.51.100.52"));
    expect(await firstPreview(template)).toEqual(rendered);
  });
});
