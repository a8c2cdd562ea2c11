/* Stands in for the compiler probe CMake writes into every build folder
 * it configures (CMakeFiles/<version>/CompilerIdCXX/): a program with a
 * main() of its own. A sample folder holding a configured build has one;
 * cpusim must not compile it. */
#include <cstdio>

int main(int argc, char *argv[])
{
    (void)argv;
    std::printf("compiler probe %d\n", argc);
    return 0;
}
