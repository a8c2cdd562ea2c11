# Builds this task's reference plugin, skeleton_ref.so, against the
# installed npukb (pkg-config npukb; set PKG_CONFIG_PATH when npukb is
# installed under a prefix pkg-config does not search).
PLUGIN = skeleton_ref
CC ?= cc
CFLAGS ?= -O2
PKG_CONFIG ?= pkg-config
NPUKB_CFLAGS = $(shell $(PKG_CONFIG) --cflags npukb)
NPUKB_LIBS = $(shell $(PKG_CONFIG) --libs npukb)

all: $(PLUGIN).so

$(PLUGIN).so: $(PLUGIN).c
	$(CC) -std=c11 -Wall -Wextra $(CFLAGS) -shared -fPIC -fvisibility=hidden \
		-o $@ $(PLUGIN).c $(NPUKB_CFLAGS) $(NPUKB_LIBS)

clean:
	rm -f $(PLUGIN).so

.PHONY: all clean
