/**
 * The change-password link carries `token` and `id`; both are required. A `+` in the token arrives as a
 * space (query decoding), so spaces are turned back into plus signs (spec section 2).
 */
export function readChangePasswordQuery(search: string): { token: string; id: string } | null {
  const params = new URLSearchParams(search);
  const token = (params.get('token') ?? '').trim().replace(/ /g, '+');
  const id = (params.get('id') ?? '').trim();
  return token && id ? { token, id } : null;
}
