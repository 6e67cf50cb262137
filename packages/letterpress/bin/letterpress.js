#!/usr/bin/env node
// The command's entry, kept outside dist/ so that npm links it on install before anything is built.
import "../dist/cli.js";
