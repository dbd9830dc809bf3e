// First: installs the error map every schema's messages come from (DESIGN.md §11 Input hygiene).
import './messages';

export * from './admin-message';
export * from './bill';
export * from './buyer';
export * from './campaign';
export * from './common';
export * from './compliance';
export * from './constants';
export * from './errors';
export * from './evidence';
export * from './integration';
export * from './lead';
export * from './messages';
export * from './ping-bids';
export * from './returns';
export * from './service';
export * from './session';
export * from './signup';
export * from './sim';
export * from './source';
export * from './source-api';
export * from './source-api-aliases';
export * from './stats';
export * from './system';
export * from './time-zone';
export * from './webhook';
export * from './zip';
