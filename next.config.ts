import type { NextConfig } from "next";

const standalone = process.env.LETTERPRESS_STANDALONE === "1";

const nextConfig: NextConfig = {
  // PGlite, postgres.js and the QuickJS wasm must stay real node modules, not bundled copies.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "postgres", "quickjs-emscripten"],
  // The sandbox runs in a worker thread loaded from a generated file, which no import points at: trace it (and the
  // QuickJS wasm it loads) into every server function explicitly.
  outputFileTracingIncludes: {
    "/**": [
      "./lib/render/workers/*.generated.*",
      "./lib/render/sandbox/*.generated.*",
      "./node_modules/quickjs-emscripten*/**",
      "./node_modules/@jitl/quickjs-*/**",
    ],
    // GET /letterpress.tgz packs the typed client's built folder (lib/client-package/tarball.ts), which no import names.
    "/letterpress.tgz": [
      "./packages/letterpress/package.json",
      "./packages/letterpress/README.md",
      "./packages/letterpress/bin/**",
      "./packages/letterpress/dist/**",
    ],
  },
  // LETTERPRESS_STANDALONE=1: also write .next/standalone, Next's own server with only the files the tracer found
  // (`node .next/standalone/server.js`, after copying .next/static beside it): what `npm run check:deploy` runs and a
  // container would. Off by default: `next start` (npm start, the browser tests, the bench) warns on a standalone build,
  // and Vercel's builder reads the traces, not this folder.
  output: standalone ? "standalone" : undefined,
  // The standalone server loads each route's code on its first request, as a Vercel instance does, instead of every
  // route's right after listening: that preload held a new instance's first answer back by about 0.5 s
  // (docs/performance.md, "Cold start"). `next start` keeps Next's default, for a server that lives long.
  experimental: { preloadEntriesOnStart: !standalone },
  poweredByHeader: false,
  // npm test's build (scripts/test.sh) comes after its type check, `npm run typecheck`, which checks the same files with
  // Next's route types: checking them again would add a quarter to the build. Every other build checks them itself.
  typescript: { ignoreBuildErrors: process.env.LETTERPRESS_TYPES_CHECKED === "1" },
  // `npm run dev` only: by default the indicator sits bottom-left, over the sidebar's account and Sign out; on the
  // right it still shows the route's rendering and any errors, and never covers the sidebar.
  devIndicators: { position: "bottom-right" },
};

export default nextConfig;
