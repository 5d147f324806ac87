// Types for node-binary.mjs.
export declare function nodePackageDir(version: string): string;
export declare function nodeBinary(version: string): string;
export declare function ensureNodeBinary(version: string, purpose: string): string;
