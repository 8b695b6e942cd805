# Builds the ibcc ns-3 model and the ibcc-twoswitch program against an
# installed ns-3, outside an ns-3 source tree. Called by the top-level
# Makefile (`make ns3`), which first writes $(BUILD)/ns3/flags.mk with
# tools/ns3-detect.sh (NS3_CFLAGS, NS3_LIBS, NS3_CXX). Objects are cached
# in $(BUILD)/ns3/obj and rebuilt only when a source, a header they
# include (ibcc.h too) or the ns-3 flags change.
BUILD ?= build
include $(BUILD)/ns3/flags.mk

NS3_DIR  = examples/ns3
SRCS     = $(wildcard $(NS3_DIR)/model/*.cc) $(wildcard $(NS3_DIR)/helper/*.cc) \
           $(NS3_DIR)/examples/ibcc-twoswitch.cc
OBJS     = $(patsubst %.cc,$(BUILD)/ns3/obj/%.o,$(notdir $(SRCS)))
# -Werror is safe: ns-3's headers come in through -isystem / /usr/include
NS3_CXXFLAGS = -std=c++17 -O2 -Wall -Wextra -Werror -I. -I$(NS3_DIR)/model \
           -I$(NS3_DIR)/helper $(NS3_CFLAGS)

vpath %.cc $(NS3_DIR)/model $(NS3_DIR)/helper $(NS3_DIR)/examples

$(BUILD)/ns3/ibcc-twoswitch: $(OBJS)
	@echo "  LINK $@ (ns-3 $(NS3_VERSION))"
	@$(NS3_CXX) $(OBJS) -o $@ $(NS3_LIBS)

$(BUILD)/ns3/obj/%.o: %.cc $(BUILD)/ns3/flags.mk | $(BUILD)/ns3/obj
	@echo "  CXX  $<"
	@$(NS3_CXX) $(NS3_CXXFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/ns3/obj:
	mkdir -p $@

-include $(OBJS:.o=.d)
