/** product.md §2 route table: 'testing' is an empty page (kept for smoke checks of the shell). */
export function TestingPage() {
  return <div data-testid="testing-page" />;
}
