/**
 * Sessions and devices (docs/auth.md "Sessions and devices"): the
 * `devices()` step and `ctx.services.devices`.
 */
export { devices, type DevicesStepOptions } from './devices-step.js';
export { AccountDevices, type DeviceSession } from './account-devices.js';
