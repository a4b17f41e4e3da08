package io.railmap.discovery.model;

import io.railmap.matrix.model.PortState;

/**
 * The logical port states of InfiniBand verbs, as both Linux sysfs ({@code ports/<n>/state} reads
 * {@code 4: ACTIVE}) and {@code ibv_devinfo} ({@code state: PORT_ACTIVE (4)}) print them: a number
 * and a name that must agree.
 */
public enum IbPortState {
    /** 0: no state change; not a state a port rests in. */
    NOP(0, PortState.UNKNOWN),
    /** 1: no link. */
    DOWN(1, PortState.DOWN),
    /** 2: physical link up, waiting for the subnet manager. */
    INIT(2, PortState.INIT),
    /** 3: configured, not yet active. */
    ARMED(3, PortState.ARMED),
    /** 4: usable. */
    ACTIVE(4, PortState.ACTIVE),
    /**
     * 5: active but deferring traffic while the link recovers. Reported as
     * {@link PortState#UNKNOWN}, so the matrix does not take the port until it is active again.
     */
    ACTIVE_DEFER(5, PortState.UNKNOWN);

    private final int code;
    private final PortState portState;

    IbPortState(int code, PortState portState) {
        this.code = code;
        this.portState = portState;
    }

    /** @return the railmap state this verbs state maps to */
    public PortState portState() {
        return portState;
    }

    /**
     * @param code the number ({@code 4})
     * @param name the name as printed, without any {@code PORT_} prefix ({@code ACTIVE})
     * @return the state
     * @throws IllegalArgumentException when the number is unknown or the name does not match it
     */
    public static IbPortState of(int code, String name) {
        for (IbPortState state : values()) {
            if (state.code == code) {
                if (!state.name().equals(name)) {
                    throw new IllegalArgumentException("port state " + code + " is " + state.name() + ", not " + Quote.value(name));
                }
                return state;
            }
        }
        throw new IllegalArgumentException("unknown port state " + code + " (" + Quote.value(name) + ")");
    }
}
