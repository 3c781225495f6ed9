/** heic-decode ships no types; these are its documented calls (libheif-js under the hood). */
declare module 'heic-decode' {
  type DecodedImage = { width: number; height: number; data: Uint8ClampedArray }
  type Input = { buffer: ArrayBufferLike | Uint8Array }
  type LazyImage = { width: number; height: number; decode(): Promise<DecodedImage> }
  type Decode = ((input: Input) => Promise<DecodedImage>) & {
    /** Every image in the file, measured but not yet decoded; call dispose() when done. */
    all(input: Input): Promise<LazyImage[] & { dispose(): void }>
  }
  const decode: Decode
  export default decode
}
