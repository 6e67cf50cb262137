import { NextResponse } from "next/server";

// GET /api/health – liveness: touches neither the database nor auth (also the benchmark's baseline)
export const GET = () => NextResponse.json({ status: "ok" });
