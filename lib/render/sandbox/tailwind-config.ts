// What the compile worker's reading of a <Tailwind config> (./tailwind-usage.ts) hands the Tailwind styles bundle
// (./tailwind-styles.ts): a module of its own, so that bundle does not take TypeScript's parser in with it.

/** A config as JSON (the value `<Tailwind config>` gets), pixelBasedPreset left as PIXEL_BASED_PRESET. */
export type TailwindConfigValue =
  string | number | boolean | null | TailwindConfigValue[] | { [key: string]: TailwindConfigValue };

/** Stands for pixelBasedPreset until ./tailwind-styles.ts puts the real preset in its place. */
export const PIXEL_BASED_PRESET = "\u0000pixelBasedPreset";
