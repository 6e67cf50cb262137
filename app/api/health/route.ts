import { NextResponse } from "next/server";
import { routeHandlers } from "@/lib/api/route";

// GET /api/health – liveness: touches neither the database nor auth (also the benchmark's baseline)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: async () => NextResponse.json({ status: "ok" }),
});
