import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite, postgres.js and the QuickJS wasm must stay real node modules, not bundled copies.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "postgres", "quickjs-emscripten", "sucrase"],
  poweredByHeader: false,
};

export default nextConfig;
