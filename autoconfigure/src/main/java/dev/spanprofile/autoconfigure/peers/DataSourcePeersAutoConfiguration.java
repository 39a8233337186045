package dev.spanprofile.autoconfigure.peers;

import javax.sql.DataSource;

import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import dev.spanprofile.sampling.PeerNames;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Names the application's databases in its waits: each {@link DataSource} bean's JDBC URL
 * becomes the name of its servers' {@code host:port} ({@link PeerNames}), so that a
 * request's breakdown says "12 round trips to PostgreSQL petclinic at db:5432".
 */
@AutoConfiguration(after = SpanProfileAutoConfiguration.class)
@ConditionalOnClass({ DataSource.class, PeerNames.class })
@ConditionalOnBooleanProperty(name = "spanprofile.waits.enabled", matchIfMissing = true)
public final class DataSourcePeersAutoConfiguration {

	DataSourcePeersAutoConfiguration() {
	}

	/** Static: a post-processor must not make its configuration early. */
	@Bean
	static DataSourcePeerNames spanProfileDataSourcePeerNames(ObjectProvider<PeerNames> peerNames) {
		return new DataSourcePeerNames(peerNames);
	}

}
