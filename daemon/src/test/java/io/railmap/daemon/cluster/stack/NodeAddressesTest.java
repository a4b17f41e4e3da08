package io.railmap.daemon.cluster.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.jgroups.Address;
import org.junit.jupiter.api.Test;

class NodeAddressesTest {
    @Test
    void anAddressCarriesTheNodeNameAndItsIdentityIsTheIncarnationsText() {
        UUID incarnation = UUID.fromString("0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3");

        Address address = NodeAddresses.generator("studio-a", incarnation).generateAddress("studio-a");

        assertThat(NodeAddresses.node(address)).contains("studio-a");
        assertThat(NodeAddresses.id(address)).isEqualTo(incarnation.toString());
    }
}
