import "server-only";
import { NextResponse } from "next/server";
import { renderAnswer, type RenderBody } from "@/lib/render/answer";

/** renderAnswer for a route: a body for the route to send, or the JSON the render serialized, sent as it is. */
export async function renderResponse(
  ...args: Parameters<typeof renderAnswer>
): Promise<RenderBody | NextResponse<RenderBody>> {
  const answer = await renderAnswer(...args);
  if ("body" in answer) return answer.body;
  return new NextResponse<RenderBody>(answer.json, { headers: { "Content-Type": "application/json" } });
}
