import sys

from narrator.cli import main

sys.exit(main())
