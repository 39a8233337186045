package dev.spanprofile.autoconfigure.peers;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The database servers a JDBC URL points at, named as a person reads them:
 * {@code jdbc:postgresql://db:5432/petclinic} is {@code PostgreSQL petclinic at db:5432}.
 * Parsed by hand from the URL's text (no driver is asked, no connection opened), for the
 * drivers' usual forms; a URL it does not understand (an embedded database, a driver's
 * own syntax) names no peer.
 */
final class JdbcPeers {

	/** The drivers' subprotocols: product name and default port. */
	private static final Map<String, Product> PRODUCTS = Map.of("postgresql", new Product("PostgreSQL", 5432), "mysql",
			new Product("MySQL", 3306), "mariadb", new Product("MariaDB", 3306), "sqlserver",
			new Product("SQL Server", 1433), "oracle", new Product("Oracle", 1521), "db2", new Product("Db2", 50000),
			"h2", new Product("H2", 9092));

	private JdbcPeers() {
	}

	/** The servers of {@code url}, each with its name; empty when none is found. */
	static List<Peer> of(String url) {
		if (url == null || !url.regionMatches(true, 0, "jdbc:", 0, 5)) {
			return List.of();
		}
		String rest = url.substring(5);
		int colon = rest.indexOf(':');
		if (colon <= 0) {
			return List.of();
		}
		String subprotocol = rest.substring(0, colon).toLowerCase(Locale.ROOT);
		Product product = PRODUCTS.getOrDefault(subprotocol, new Product(subprotocol, -1));
		String authority;
		String database;
		if (subprotocol.equals("oracle")) {
			// jdbc:oracle:thin:@host:port/service, @//host:port/service, @host:port:SID
			int at = rest.indexOf('@');
			if (at < 0 || rest.indexOf('(', at) >= 0) {
				return List.of();
			}
			String target = rest.substring(at + 1);
			target = target.startsWith("//") ? target.substring(2) : target;
			int slash = target.indexOf('/');
			if (slash < 0) {
				String[] parts = target.split(":");
				if (parts.length != 3) {
					return List.of();
				}
				authority = parts[0] + ":" + parts[1];
				database = parts[2];
			}
			else {
				authority = target.substring(0, slash);
				database = target.substring(slash + 1);
			}
		}
		else {
			int slashes = rest.indexOf("//");
			if (slashes < 0) {
				return List.of();
			}
			String target = rest.substring(slashes + 2);
			int end = indexOfAny(target, "/;?");
			authority = (end >= 0) ? target.substring(0, end) : target;
			database = (end >= 0 && target.charAt(end) == '/') ? target.substring(end + 1) : "";
			if (subprotocol.equals("sqlserver")) {
				database = property(target, "databaseName");
			}
		}
		database = database.isEmpty() ? "" : database.split("[?;&]")[0];
		List<Peer> peers = new ArrayList<>();
		for (String server : authority.split(",")) {
			Peer peer = peer(server.trim(), product, database);
			if (peer != null) {
				peers.add(peer);
			}
		}
		return List.copyOf(peers);
	}

	private static Peer peer(String server, Product product, String database) {
		String host = server;
		int port = product.defaultPort();
		int colon = server.lastIndexOf(':');
		if (server.startsWith("[")) {
			// An IPv6 literal: [::1]:5432
			int close = server.indexOf(']');
			host = server.substring(1, Math.max(1, close));
			colon = (close > 0 && server.length() > close + 1 && server.charAt(close + 1) == ':') ? close + 1 : -1;
		}
		else if (colon > 0) {
			host = server.substring(0, colon);
		}
		if (colon > 0) {
			try {
				port = Integer.parseInt(server.substring(colon + 1));
			}
			catch (NumberFormatException ex) {
				return null;
			}
		}
		int instance = host.indexOf('\\');
		host = (instance > 0) ? host.substring(0, instance) : host;
		if (host.isEmpty() || port <= 0) {
			return null;
		}
		String at = (host.indexOf(':') >= 0) ? "[" + host + "]:" + port : host + ":" + port;
		String name = product.name() + (database.isEmpty() ? "" : " " + database) + " at " + at;
		return new Peer(host, port, name);
	}

	private static int indexOfAny(String text, String characters) {
		for (int i = 0; i < text.length(); i++) {
			if (characters.indexOf(text.charAt(i)) >= 0) {
				return i;
			}
		}
		return -1;
	}

	private static String property(String text, String key) {
		for (String part : text.split(";")) {
			int equals = part.indexOf('=');
			if (equals > 0 && part.substring(0, equals).trim().equalsIgnoreCase(key)) {
				return part.substring(equals + 1).trim();
			}
		}
		return "";
	}

	/** One database server and its name. */
	record Peer(String host, int port, String name) {
	}

	private record Product(String name, int defaultPort) {
	}

}
