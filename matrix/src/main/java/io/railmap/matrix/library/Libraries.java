package io.railmap.matrix.library;

import java.util.List;
import java.util.stream.Collectors;

/** Every library railmap writes settings for, registered once: the CLI and the API take their lists from here. */
public final class Libraries {
    /** The libraries, in the order {@code --for} lists them. */
    public static final List<Library> ALL = List.of(new NcclLibrary(), new UcxLibrary(), new NixlLibrary(), new ModelExpressLibrary(),
            new NvshmemLibrary(), new JacclLibrary(), new MlxRingLibrary());

    private Libraries() {
    }

    /**
     * @param name a library's name, any case ({@code nccl})
     * @return the library
     * @throws IllegalArgumentException naming the known libraries when none has that name
     */
    public static Library named(String name) {
        return ALL.stream().filter(l -> l.name().equalsIgnoreCase(name == null ? "" : name.trim())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown library \"" + io.railmap.matrix.model.Names.escape(name)
                        + "\": give one of " + ALL.stream().map(Library::name).collect(Collectors.joining(", "))));
    }
}
