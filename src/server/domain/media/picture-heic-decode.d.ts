/** Types of `heic-decode` (libheif compiled to WASM; the package ships none). Only what we use. */
declare module 'heic-decode' {
  type DecodedImage = { width: number; height: number; data: Uint8ClampedArray };
  type Images = { width: number; height: number; decode: () => Promise<DecodedImage> }[] & { dispose: () => void };
  function decode(input: { buffer: Uint8Array }): Promise<DecodedImage>;
  namespace decode {
    function all(input: { buffer: Uint8Array }): Promise<Images>;
  }
  export default decode;
}
