package dev.spanprofile.autoconfigure.peers;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import javax.sql.DataSource;

import dev.spanprofile.sampling.PeerNames;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Names the database servers of each {@link DataSource} bean after its JDBC URL, so that
 * a request's waits and round trips say {@code PostgreSQL petclinic at db:5432} rather
 * than an address. The URL is read from the pool's own getter ({@code getJdbcUrl()} of
 * HikariCP, {@code getUrl()} of most others), never by opening a connection: at start-up
 * the database may not be there yet, and asking it is not this class's business.
 */
final class DataSourcePeerNames implements BeanPostProcessor {

	private static final System.Logger logger = System.getLogger(DataSourcePeerNames.class.getName());

	private static final String[] URL_GETTERS = { "getJdbcUrl", "getUrl", "getURL" };

	private final ObjectProvider<PeerNames> names;

	DataSourcePeerNames(ObjectProvider<PeerNames> names) {
		this.names = names;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof DataSource dataSource) {
			String url = jdbcUrl(dataSource);
			PeerNames peers = (url != null) ? this.names.getIfAvailable() : null;
			if (peers != null) {
				for (JdbcPeers.Peer peer : JdbcPeers.of(url)) {
					peers.name(peer.host(), peer.port(), peer.name());
				}
			}
		}
		return bean;
	}

	/** The URL as the data source's getter gives it, or {@code null}. */
	static String jdbcUrl(DataSource dataSource) {
		for (String getter : URL_GETTERS) {
			try {
				Method method = dataSource.getClass().getMethod(getter);
				if (method.getReturnType() == String.class && Modifier.isPublic(method.getModifiers())) {
					Object url = method.invoke(dataSource);
					if (url != null) {
						return url.toString();
					}
				}
			}
			catch (NoSuchMethodException ex) {
				// Not this pool's getter.
			}
			catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
				logger.log(System.Logger.Level.DEBUG, "spanprofile: no JDBC URL from " + dataSource.getClass(), ex);
				return null;
			}
		}
		return null;
	}

}
