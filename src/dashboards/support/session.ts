/** The signed-in support user: undefined while unknown, null when signed out. */
import { atom } from 'nanostores';
import type { SupportProfile } from '#lib/api/types.ts';

export const $supportProfile = atom<SupportProfile | null | undefined>(undefined);
