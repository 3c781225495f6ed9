/** heic-decode ships no types; this is its documented call (libheif-js under the hood). */
declare module 'heic-decode' {
  type DecodedImage = { width: number; height: number; data: Uint8ClampedArray }
  function decode(input: { buffer: ArrayBufferLike | Uint8Array }): Promise<DecodedImage>
  export default decode
}
