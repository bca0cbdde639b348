declare module 'virtual:sign-in-catalogue/*' {
  const catalogue: Record<string, unknown>;
  export default catalogue;
}
