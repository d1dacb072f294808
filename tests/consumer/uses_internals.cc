// Depends on an internal target; tools/test checks that this does not build.
int main() { return 0; }
