# Builds the ibcc ns-3 model's distributed (MPI) program,
# $(BUILD)/ns3mpi/ibcc-fattree-mpi, against an installed ns-3 and ns-3's
# MPI module built by tools/ns3-mpi-build.sh. Called by the top-level
# Makefile (`make ns3-mpi-build`). The model's objects are compiled here
# again, into their own directory, so that tests/ns3.sh (make ns3-build)
# and tests/ns3mpi.sh can rebuild at the same time under make test.
BUILD ?= build
include $(BUILD)/ns3/flags.mk
include $(BUILD)/ns3mpi/flags.mk

NS3_DIR  = examples/ns3
SRCS     = $(wildcard $(NS3_DIR)/model/*.cc) $(wildcard $(NS3_DIR)/helper/*.cc) \
           $(wildcard $(NS3_DIR)/mpi/*.cc)
OBJS     = $(patsubst %.cc,$(BUILD)/ns3mpi/obj-ibcc/%.o,$(notdir $(SRCS)))
CXXFLAGS_MPI = -std=c++17 -O2 -Wall -Wextra -Werror -I. -I$(NS3_DIR)/model \
           -I$(NS3_DIR)/helper -I$(NS3_DIR)/mpi $(NS3_CFLAGS) $(MPI_CFLAGS)

vpath %.cc $(NS3_DIR)/model $(NS3_DIR)/helper $(NS3_DIR)/mpi

$(BUILD)/ns3mpi/ibcc-fattree-mpi: $(OBJS) $(BUILD)/ns3mpi/lib/libns3-mpi.so
	@echo "  LINK $@ (ns-3 $(NS3_VERSION) + MPI module)"
	@$(MPI_CXX) $(OBJS) -o $@ $(MPI_LIBS) $(NS3_LIBS)

$(BUILD)/ns3mpi/obj-ibcc/%.o: %.cc $(BUILD)/ns3/flags.mk $(BUILD)/ns3mpi/flags.mk | $(BUILD)/ns3mpi/obj-ibcc
	@echo "  CXX  $<"
	@$(MPI_CXX) $(CXXFLAGS_MPI) -MMD -MP -c $< -o $@

$(BUILD)/ns3mpi/obj-ibcc:
	mkdir -p $@

-include $(OBJS:.o=.d)
