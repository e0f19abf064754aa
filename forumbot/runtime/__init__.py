"""The runtime: joins the pure engine to a forum, a database and a clock."""
