"""Static and dynamic analysis of a repository, gathered in a :class:`RepoIndex`."""
