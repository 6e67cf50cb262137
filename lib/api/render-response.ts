import "server-only";
import { NextResponse } from "next/server";
import { renderResponseBody, type RenderBody } from "@/lib/render/response";

/** renderResponseBody for a route: a body for the route to send, or the JSON the render serialized, sent as it is. */
export async function renderResponse(
  ...args: Parameters<typeof renderResponseBody>
): Promise<RenderBody | NextResponse<RenderBody>> {
  const response = await renderResponseBody(...args);
  if ("body" in response) return response.body;
  return new NextResponse<RenderBody>(response.json, { headers: { "Content-Type": "application/json" } });
}
