// Types for machine-factor.mjs, so TypeScript tests can import it.
export declare function machineFactor(): number;
export declare function scaled(ms: number): number;
