// Types for chromium.mjs, so TypeScript tests can import it.
export declare const DEFAULT_CHROMIUM: string;
export declare function chromiumPath(): string;
export declare const CHROMIUM_ARGS: string[];
export declare function chromiumProblem(path?: string): string | undefined;
export declare function requireChromium(): string;
