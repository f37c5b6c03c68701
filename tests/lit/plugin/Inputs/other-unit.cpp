#include "shared-kernel.h"

double gradientInOther(double x) { return slope::grad<kernel>(x); }
