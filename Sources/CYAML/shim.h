#ifndef GATEHOUSE_CYAML_SHIM_H
#define GATEHOUSE_CYAML_SHIM_H
#include <yaml.h>
#endif
