import type { Carrier } from './carrier';
import { HttpCarrier, type HttpCarrierOptions } from './http-carrier';
import { StdioCarrier, type StdioCarrierOptions } from './stdio-carrier';
import type { ServerConfig } from '../types';

export type CarrierOptions = StdioCarrierOptions & HttpCarrierOptions;

/** The carrier a config asks for; the config was checked (config-check.ts) first. */
export function carrierFor(config: ServerConfig, options: CarrierOptions = {}): Carrier {
  return config.transport === 'stdio' ? new StdioCarrier(config, options) : new HttpCarrier(config, options);
}
