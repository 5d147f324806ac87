// Types for apt.mjs, so TypeScript tests can import it.
export declare function aptGet(args: string[], opts?: { waitMs?: number; say?: (line: string) => void }): void;
