import { afterEach, describe, expect, it, vi } from "vitest";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { errors } from "@/lib/core/errors";
import { renderCatalogueJsonOffThread } from "@/lib/render/workers/catalogue-pool";
import { auth, call, catalogueId, createUser } from "../support/api";

// The worker's own limits are exercised in render.test.ts; here, how POST /render answers when the worker reports one.
vi.mock("@/lib/render/workers/catalogue-pool", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/render/workers/catalogue-pool")>()),
  renderCatalogueJsonOffThread: vi.fn(),
}));

describe("POST /render when the catalogue render worker stops a render", () => {
  afterEach(() => void vi.mocked(renderCatalogueJsonOffThread).mockReset());

  it.each([
    ["past its deadline", errors.renderFailed("The template did not finish rendering within its deadline of 1000 ms")],
    [
      "over 5 MB of HTML",
      errors.renderFailed("The rendered HTML is larger than 5 MB (5,242,880 bytes): use fewer or shorter variables"),
    ],
  ])("%s answers 422 RENDER_ERROR with the worker's reason, for the caller's account", async (_, failure) => {
    vi.mocked(renderCatalogueJsonOffThread).mockRejectedValueOnce(failure);
    const user = await createUser();
    const id = await catalogueId("welcome");
    const result = await call(postRender, `/api/v1/templates/${id}/render`, {
      method: "POST",
      params: { id },
      headers: auth(user),
      body: {},
    });
    expect(result.status).toBe(422);
    expect(result.body).toEqual({
      error: "Template render failed",
      code: "RENDER_ERROR",
      message: failure.message,
      success: false,
    });
    expect(vi.mocked(renderCatalogueJsonOffThread).mock.calls[0]?.[0]).toBe(user.accountId);
  });

  it("a full render queue answers 503 SANDBOX_BUSY with Retry-After", async () => {
    const refusal = errors.sandboxBusy("This account already has 32 renders waiting; try again in a moment.", 1);
    vi.mocked(renderCatalogueJsonOffThread).mockRejectedValueOnce(refusal);
    const user = await createUser();
    const id = await catalogueId("welcome");
    const result = await call(postRender, `/api/v1/templates/${id}/render`, {
      method: "POST",
      params: { id },
      headers: auth(user),
      body: {},
    });
    expect({ status: result.status, retryAfter: result.headers.get("retry-after"), body: result.body }).toEqual({
      status: 503,
      retryAfter: "1",
      body: {
        error: "Template sandbox busy",
        code: "SANDBOX_BUSY",
        success: false,
        message: "This account already has 32 renders waiting; try again in a moment.",
      },
    });
  });
});
