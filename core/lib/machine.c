/* machine.c - hwloc's view of the host, for report provenance. */
#include "machine.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <hwloc.h>

static unsigned count(hwloc_topology_t topo, hwloc_obj_type_t type)
{
	int n = hwloc_get_nbobjs_by_type(topo, type);
	return n > 0 ? (unsigned)n : 0;
}

void npukb_machine_probe(struct npukb_machine *m)
{
	hwloc_topology_t topo;
	struct utsname u;

	memset(m, 0, sizeof(*m));
	if (uname(&u) == 0)
		snprintf(m->os, sizeof(m->os), "%s %s %s", u.sysname, u.release, u.machine);
	if (hwloc_topology_init(&topo) != 0)
		return;
	if (hwloc_topology_load(topo) == 0) {
		hwloc_obj_t root = hwloc_get_root_obj(topo), pkg;
		const char *model = NULL;
		m->packages = count(topo, HWLOC_OBJ_PACKAGE);
		m->cores = count(topo, HWLOC_OBJ_CORE);
		m->pus = count(topo, HWLOC_OBJ_PU);
		m->memory_bytes = root ? root->total_memory : 0;
		pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
		if (pkg)
			model = hwloc_obj_get_info_by_name(pkg, "CPUModel");
		if (!model && root)
			model = hwloc_obj_get_info_by_name(root, "CPUModel");
		if (model)
			snprintf(m->cpu_model, sizeof(m->cpu_model), "%s", model);
	}
	hwloc_topology_destroy(topo);
}
