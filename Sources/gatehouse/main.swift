import Glibc

// gatehouse [run|check|demo|token|sdk|version] — see README, "Command line and signals". Exit codes: 0 ok, 1 runtime or
// configuration error, 2 usage error.
exit(CommandLineInterface.run(Array(CommandLine.arguments.dropFirst())))
