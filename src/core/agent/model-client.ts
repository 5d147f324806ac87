import type * as Sdk from './model-sdk';

/** The Anthropic client the agent uses: Messages and Models (model-sdk.ts). */
export type ModelClient = Sdk.ModelClient;
export type ModelClientOptions = NonNullable<ConstructorParameters<typeof Sdk.ModelClient>[0]>;

let sdk: typeof Sdk | undefined;

/**
 * The SDK, loaded on first use. In the extension it is a bundle of its own (dist/lazy/model-sdk.js, LAZY_MODULES
 * in scripts/esbuild-plugins.mjs): activation never calls the model, and the SDK is 114 KiB of the bundle.
 */
export function modelSdk(): typeof Sdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- on first use, on purpose (above)
  sdk ??= require('./model-sdk') as typeof Sdk;
  return sdk;
}

export function newModelClient(options: ModelClientOptions): ModelClient {
  return new (modelSdk().ModelClient)(options);
}
