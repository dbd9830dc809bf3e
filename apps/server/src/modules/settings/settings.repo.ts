import { readSetting, writeSetting } from '../../db/settings';

/** The exchange-wide settings this module owns, in the key/value settings table. */
export const settingsRepo = {
  get: readSetting,
  save: writeSetting,
};
