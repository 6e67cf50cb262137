import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { watchErrors } from "./browser";
import { url } from "./served-app";

export type StoryPage = {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors in the file's pages: `watchErrors(otherPage, story.pageErrors)` adds another page. */
  pageErrors: string[];
};

/**
 * One 1440 × 900 page for the tests of a file, which tell one story in order (the file runs them serially), made
 * ready by `setUp` (signing up, adding what the story needs). After the file's last test, the file fails if any
 * page it watched raised an uncaught error, hydration included. A file whose tests run in parallel has one such
 * page in each worker that runs some of them.
 */
export function useStoryPage(setUp?: (page: Page) => Promise<unknown>): StoryPage {
  const story = { pageErrors: [] as string[] } as StoryPage;
  test.beforeAll(async ({ browser }) => {
    story.context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    story.page = await story.context.newPage();
    watchErrors(story.page, story.pageErrors);
    await setUp?.(story.page);
  });
  test.afterAll(async () => {
    await story.context?.close();
    expect(story.pageErrors, "uncaught errors (hydration included) in the file's pages").toEqual([]);
  });
  return story;
}

/**
 * Opens one of the app's pages and, given its heading, waits for it. A page that failed on the server fails the test
 * at once, not by the heading's wait running out (a page's notFound() answers 200 once its layout has streamed).
 */
export async function open(page: Page, path: string, heading?: string | RegExp): Promise<void> {
  const answer = await page.goto(url(path));
  expect(answer?.status(), path).toBeLessThan(500);
  if (heading) await page.getByRole("heading", { level: 1, name: heading }).waitFor();
}
