/* self_location.h - the folder libsmfw was loaded from (core-private). */
#ifndef SMFW_SELF_LOCATION_H
#define SMFW_SELF_LOCATION_H

/* Folder of the libsmfw file in use (or of the program linking the static core), or NULL. */
const char *smfw_self_lib_dir(void);
/* True when that folder is inside this source tree's build folder. */
int smfw_self_in_build_tree(void);

#endif
