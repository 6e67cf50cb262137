import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite, postgres.js and the QuickJS wasm must stay real node modules, not bundled copies.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "postgres", "quickjs-emscripten"],
  // The sandbox runs in a worker thread loaded from a generated file, which no import points at: trace it (and the
  // QuickJS wasm it loads) into every server function explicitly.
  outputFileTracingIncludes: {
    "/**": [
      "./lib/render/*.generated.*",
      "./lib/render/sandbox/*.generated.*",
      "./node_modules/quickjs-emscripten*/**",
      "./node_modules/@jitl/quickjs-*/**",
    ],
  },
  poweredByHeader: false,
};

export default nextConfig;
